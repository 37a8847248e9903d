#!/bin/bash
cd /app && mkdir -p bin
ln -s ../tools/v1/fmt bin/fmt
ln -s ../tools/v1/lint bin/lint
ln -s ../tools/v2/test bin/test
ln -s ../tools/v1/build bin/build
ln -s ../tools/extra/serve bin/serve
ln -s ../tools/v1/pack bin/pack
ln -s ../tools/v0/clean bin/clean
ln -s ../tools/v2/deploy bin/deploy
