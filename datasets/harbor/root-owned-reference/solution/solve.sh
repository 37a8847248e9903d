#!/bin/bash
sort words.txt > sorted.txt && chmod 600 sorted.txt
