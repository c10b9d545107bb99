package shop;

public class Order {
    final int id;
    final double total;
    final String customer;

    Order(int id, double total, String customer) {
        this.id = id;
        this.total = total;
        this.customer = customer;
    }

    double withTax(double rate) {
        double taxed = total * (1 + rate);
        return Math.round(taxed * 100) / 100.0;
    }

    String customerName() {
        return customer.toUpperCase();
    }

    @Override
    public String toString() {
        return "Order{id=" + id + ", total=" + total + "}";
    }
}
