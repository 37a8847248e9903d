#!/bin/bash
echo alpine > /tmp/os.txt
