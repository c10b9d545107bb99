// pairdbg's Go demo, the twin of order.py: a small shop checkout with a
// bug. Gold customers are charged more, not less. The program checks its
// own total and exits with status 3 when the total is wrong; run it under
// the debugger and find out why. Prices are in cents.
package main

import (
	"fmt"
	"os"
)

type Item struct {
	Name     string
	Price    int
	Quantity int
}

type Cart struct {
	Items []Item
}

func (c *Cart) Add(name string, price, quantity int) {
	c.Items = append(c.Items, Item{Name: name, Price: price, Quantity: quantity})
}

type User struct {
	ID   int
	Tier string
}

// Discount rates in percent.
var discountRates = map[string]int{"gold": 10, "silver": 5}

func calculateDiscount(user *User, subtotal int) int {
	rate := discountRates[user.Tier]
	discount := -subtotal * rate / 100
	return discount
}

func processOrder(cart *Cart, user *User, taxRate int) int {
	subtotal := 0
	for _, item := range cart.Items {
		subtotal += item.Price * item.Quantity
	}
	discount := calculateDiscount(user, subtotal)
	tax := subtotal * taxRate / 100
	total := subtotal - discount + tax
	return total
}

func main() {
	cart := &Cart{}
	cart.Add("keyboard", 4999, 1)
	cart.Add("mouse", 1999, 2)
	cart.Add("cable", 999, 3)
	user := &User{ID: 482, Tier: "gold"}
	total := processOrder(cart, user, 8)
	fmt.Printf("Order total for user %d: %d.%02d\n", user.ID, total/100, total%100)
	if subtotal := 11994; total > subtotal+subtotal*8/100 {
		fmt.Fprintln(os.Stderr, "check failed: the total is more than the subtotal plus tax")
		os.Exit(3)
	}
}
