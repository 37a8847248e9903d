#!/bin/bash
set -e
cd /app
sed -i 's/^    /\t/; s/^hello: \$(OBJ)$/hello: $(OBJS)/' Makefile
make
