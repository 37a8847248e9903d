#!/bin/sh
echo restart
