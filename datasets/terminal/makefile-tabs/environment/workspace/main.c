#include <stdio.h>
#include "util.h"

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++)
        printf("Hello, %s! (%d vowels)\n", argv[i], count_vowels(argv[i]));
    if (argc < 2)
        printf("Hello, nobody!\n");
    return 0;
}
