#include <stdlib.h>
#include "config.h"

int main(int argc, char **argv) {
    if (argc > 1)
        verbosity = atoi(argv[1]);
    for (int i = 2; i < argc; i++)
        log_msg(argv[i]);
    return 0;
}
