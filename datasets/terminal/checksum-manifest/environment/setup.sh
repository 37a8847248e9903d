#!/bin/bash
set -e
mkdir -p /tmp/s && cd /tmp/s
mkdir -p "$(dirname 'dataset/test/file0.csv')" && echo aWQsdmFsdWUKMCwzMDAKMSw4MTQKMiwxMTAKMyw3MTgKNCwyNTQKNSw4NDcKNiw3MjkKNyw3MTkKOCw1MzYKOSw2NjgKMTAsOTQyCjExLDI1NwoxMiw1MzgKMTMsOTgxCjE0LDI1NQoxNSw4MjIKMTYsNzUwCjE3LDg5NgoxOCwyMQoxOSw5MDQK | base64 -d > 'dataset/test/file0.csv'
mkdir -p "$(dirname 'dataset/meta/file1.csv')" && echo aWQsdmFsdWUKMCw4MzEKMSw3MDcKMiw2NDgKMywxMzAKNCw4MDUKNSw4NTcKNiw3NDQKNywzNjAKOCw3Mwo5LDY1OQo= | base64 -d > 'dataset/meta/file1.csv'
mkdir -p "$(dirname 'dataset/train/part2/file2.csv')" && echo aWQsdmFsdWUKMCwyNzYKMSw5OTkKMiw1NjYKMywxNDMKNCw4OTYKNSwxMjUKNiw4NjEK | base64 -d > 'dataset/train/part2/file2.csv'
mkdir -p "$(dirname 'dataset/test/file3.csv')" && echo aWQsdmFsdWUKMCw5NQoxLDE4NwoyLDk3OAozLDk1NQo0LDM4NAo1LDM5CjYsMzMwCjcsOTY5CjgsNTg5CjksNjU0CjEwLDk1NAoxMSwyNDEKMTIsOTU0CjEzLDE2OQoxNCw5ODYKMTUsNzM0CjE2LDY0MAo= | base64 -d > 'dataset/test/file3.csv'
mkdir -p "$(dirname 'dataset/train/file4.csv')" && echo aWQsdmFsdWUKMCwyCjEsMTA5CjIsMzMxCjMsMTM4CjQsMTcyCjUsMjU3CjYsMTk2CjcsNjY4CjgsNjk5CjksMjcKMTAsNjM3CjExLDg3NAoxMiw1MjYKMTMsNjQ1CjE0LDQK | base64 -d > 'dataset/train/file4.csv'
mkdir -p "$(dirname 'dataset/meta/file5.csv')" && echo aWQsdmFsdWUKMCw3MzEKMSwyOAoyLDY0CjMsMjU5CjQsMTk3CjUsNTE1CjYsNzA1CjcsODc0CjgsMTg3CjksNjkxCjEwLDM4NQoxMSw0MAoxMiw1MDYKMTMsOTgxCjE0LDUxMgoxNSwxNTcKMTYsNTkxCjE3LDE4OAoxOCw2NjcK | base64 -d > 'dataset/meta/file5.csv'
mkdir -p "$(dirname 'dataset/train/file6.csv')" && echo aWQsdmFsdWUKMCw0OTcKMSw0MjAKMiwxNTMKMywyMTYK | base64 -d > 'dataset/train/file6.csv'
mkdir -p "$(dirname 'dataset/train/part2/file7.csv')" && echo aWQsdmFsdWUKMCw1MTMKMSw0MzAKMiw4OTAKMywzNDgKNCwzOQo1LDQ5MQo2LDkzMgo3LDY3Mwo4LDQ3OAo5LDQzMAoxMCwyNgoxMSw1NDEKMTIsODA4Cg== | base64 -d > 'dataset/train/part2/file7.csv'
mkdir -p "$(dirname 'dataset/meta/file8.csv')" && echo aWQsdmFsdWUKMCw0NDMKMSw3OQoyLDIwNgozLDQ2OAo0LDkyOQo1LDUxNgo2LDc2NQo3LDE2Mwo4LDkxNQo5LDMyNAoxMCw1NTIKMTEsNTY5CjEyLDg4OQoxMyw0OTcK | base64 -d > 'dataset/meta/file8.csv'
tar cjf /app/data.tar.bz2 dataset
cd /app && rm -rf /tmp/s
