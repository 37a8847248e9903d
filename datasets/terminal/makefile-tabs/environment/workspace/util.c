#include <ctype.h>
#include "util.h"

int count_vowels(const char *s) {
    int n = 0;
    for (; *s; s++) {
        char c = (char)tolower((unsigned char)*s);
        if (c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u')
            n++;
    }
    return n;
}
