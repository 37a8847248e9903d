#include <stdio.h>
#include <string.h>
#include "config.h"

void log_msg(const char *msg) {
    if (verbosity >= 1)
        printf("%s %s\n", prefix, msg);
    if (verbosity >= 2)
        printf("%s   (%zu chars)\n", prefix, strlen(msg));
}
