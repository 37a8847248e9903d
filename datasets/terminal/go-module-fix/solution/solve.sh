#!/bin/bash
set -e
cd /app
cd inventory
sed -i 's#^module .*#module example.com/inventory#' go.mod
sed -i 's/^package stores$/package store/; s/^import "fmt"$/import (\n\t"fmt"\n\t"sort"\n)/' store/store.go
go build -o inventory .
