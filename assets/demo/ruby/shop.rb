# A small shop: orders, a stock hash, and a restock that raises when an
# item runs out. The discount is applied twice: the total comes out low.

Order = Struct.new(:id, :item, :qty, :price)

def subtotal(orders)
  total = 0.0
  orders.each do |order|
    line = order.qty * order.price
    total += line
  end
  total
end

def discounted(total, rate)
  off = total * rate
  total - off - off
end

orders = [
  Order.new(1, "widget", 2, 9.5),
  Order.new(2, "gadget", 1, 20.0),
  Order.new(3, "widget", 4, 9.5)
]
stock = { "widget" => 10, "gadget" => 1 }
sum = subtotal(orders)
total = discounted(sum, 0.1)
puts "orders #{orders.length}, stock #{stock.size}, total #{total.round(2)}"
