"""A small shop checkout with a bug: gold customers are charged more, not less.

pairdbg's demo program. Run it under the debugger and find out why the
total is higher than the subtotal plus tax.
"""

from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    price: float
    quantity: int = 1


@dataclass
class Cart:
    items: list = field(default_factory=list)

    def add(self, name, price, quantity=1):
        self.items.append(Item(name, price, quantity))


class User:
    def __init__(self, user_id, tier):
        self.id = user_id
        self.tier = tier


DISCOUNT_RATES = {"gold": 0.10, "silver": 0.05}


def calculate_discount(user, subtotal):
    rate = DISCOUNT_RATES.get(user.tier, 0.0)
    discount = -subtotal * rate
    return round(discount, 2)


def process_order(cart, user, tax_rate=0.08):
    subtotal = 0.0
    for item in cart.items:
        subtotal += item.price * item.quantity
    discount = calculate_discount(user, subtotal)
    tax = round(subtotal * tax_rate, 2)
    total = subtotal - discount + tax
    return round(total, 2)


def main():
    cart = Cart()
    cart.add("keyboard", 49.99)
    cart.add("mouse", 19.99, 2)
    cart.add("cable", 9.99, 3)
    user = User(482, "gold")
    total = process_order(cart, user)
    print(f"Order total for user {user.id}: {total}")


if __name__ == "__main__":
    main()
