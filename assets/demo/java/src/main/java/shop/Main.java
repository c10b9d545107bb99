package shop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Main {
    static int processed = 0;

    public static void main(String[] args) throws Exception {
        List<Order> orders = new ArrayList<>();
        orders.add(new Order(1, 9.5, "ada"));
        orders.add(new Order(2, 20.0, "grace"));
        orders.add(new Order(3, 12.25, null));
        Map<String, Integer> stock = new HashMap<>();
        stock.put("widget", 4);
        stock.put("gadget", 7);
        Thread auditor = new Thread(() -> audit(orders), "auditor");
        auditor.start();
        auditor.join();
        double sum = 0;
        for (Order order : orders) {
            double taxed = order.withTax(0.1);
            sum += taxed;
            processed++;
        }
        System.out.println("sum " + sum);
        int units = stock.get("widget") + stock.get("gadget");
        System.out.println("units " + units);
        for (Order order : orders) {
            try {
                System.out.println(order.customerName());
            } catch (NullPointerException e) {
                System.out.println("no customer for order " + order.id);
            }
        }
        System.exit(3);
    }

    static void audit(List<Order> orders) {
        int seen = orders.size();
        System.out.println("audited " + seen);
    }
}
