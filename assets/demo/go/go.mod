module pairdbg.dev/demo/order

go 1.19
