//! A small shop checkout with a bug: the bulk discount goes to carts of
//! one item less than promised. pairdbg's Rust demo; run it with the
//! argument `panic` to see a panic stop the program.

use std::collections::HashMap;

#[derive(Debug, Clone)]
struct Item {
    name: String,
    price: u32,
    quantity: u32,
}

fn subtotal(items: &[Item]) -> u32 {
    let mut sum = 0;
    for item in items {
        sum += item.price * item.quantity;
    }
    sum
}

fn discount(count: usize, subtotal: u32) -> u32 {
    let bulk = count >= 2;
    if bulk {
        subtotal / 10
    } else {
        0
    }
}

fn checkout(items: Vec<Item>, coupon: Option<&str>) -> u32 {
    let name = String::from("widget");
    let stock: HashMap<&str, u32> = HashMap::from([("widget", 3)]);
    let opt = coupon;
    let sub = subtotal(&items);
    let off = discount(items.len(), sub);
    let total = sub - off;
    println!("{name}: {} in stock, coupon {:?}", stock["widget"], opt);
    if std::env::args().any(|a| a == "panic") {
        let empty: Vec<u32> = Vec::new();
        panic!("no price for {} (have {} prices)", name, empty.len());
    }
    total
}

fn main() {
    let items = vec![
        Item { name: "widget".into(), price: 250, quantity: 2 },
        Item { name: "gear".into(), price: 100, quantity: 1 },
        Item { name: "bolt".into(), price: 5, quantity: 10 },
    ];
    let total = checkout(items, Some("yes"));
    println!("total {total}");
    std::process::exit((total % 256) as i32);
}
