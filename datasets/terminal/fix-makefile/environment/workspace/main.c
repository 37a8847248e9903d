#include <stdio.h>
#include "greet.h"

int main(int argc, char **argv) {
    const char *who = argc > 1 ? argv[1] : "world";
    printf("%s\n", greeting(who));
    return 0;
}
