/* A small stock report with a bug: the restock count is one short.
 *
 * pairdbg's C demo. Build it with `cc -g -O0 inventory.c -o inventory`
 * and run it under the debugger to find out why "gear" is never counted.
 * Run it with the argument `crash` to see a crash stop the program.
 */
#include <stdio.h>
#include <string.h>

struct point {
    int x;
    int y;
};

struct item {
    char name[16];
    int stock;
    int minimum;
};

static int needs_restock(const struct item *it, int margin) {
    int threshold = it->minimum + margin;
    return it->stock < threshold;
}

static int count_restock(struct item *items, int n) {
    int count = 0;
    for (int i = 0; i < n - 1; i++) {
        if (needs_restock(&items[i], 0)) {
            count++;
        }
    }
    return count;
}

int main(int argc, char **argv) {
    struct item items[3] = {
        {"widget", 12, 5},
        {"bolt", 40, 10},
        {"gear", 1, 4},
    };
    struct point shelf = {3, 4};
    char name[16];
    strcpy(name, "widget");
    int total = 0;
    for (int i = 0; i < 3; i++) {
        total += items[i].stock;
    }
    if (argc > 1 && strcmp(argv[1], "crash") == 0) {
        struct item *missing = NULL;
        total += missing->stock;
    }
    int restock = count_restock(items, 3);
    printf("stock %d, restock %d, shelf %d/%d, first %s\n", total, restock,
           shelf.x, shelf.y, name);
    return restock;
}
