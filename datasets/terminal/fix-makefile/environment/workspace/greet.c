#include <stdio.h>
#include "greet.h"

static char buffer[256];

const char *greeting(const char *who) {
    snprintf(buffer, sizeof buffer, "hello, %s", who);
    return buffer;
}
