function add(a, b) {
  const c = a + b;              // line 2
  return c;
}

function main() {
  let total = 0;
  const items = [1, 2, 3];
  const info = { name: "spike", n: 3 };
  console.log("start", items.length, info.name);
  for (let i = 0; i < 1000; i++) {
    total = add(total, i);      // line 12: stepIn target
    const x = i * 2;            // line 13: stepOut lands here
    info.n = x + items.length;  // line 14: breakpoint
  }
  console.log("total", total, info);
  return total;
}

function inventory(size) {
  const stock = new Map([["apples", 3]]);
  let missing;
  const owner = null;
  if (size < 0) {
    throw new RangeError("bad size");  // line 25: uncaught with --crash
  }
  return { stock, missing, owner, size };  // line 27
}

main();
inventory(process.argv.includes("--crash") ? -1 : 1);
process.exitCode = 3;
