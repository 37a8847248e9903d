#!/bin/bash
set -e
cd /app
sed -i 's/^int verbosity = 1;$/extern int verbosity;/; s/^const char \*prefix = "\[log\]";$/extern const char *prefix;/' config.h
sed -i 's/^#include "config.h"$/#include "config.h"\n\nint verbosity = 1;\nconst char *prefix = "[log]";/' log.c
make
