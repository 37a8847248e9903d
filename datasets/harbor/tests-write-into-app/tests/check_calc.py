import sys

sys.path.insert(0, "/app")
from calc import add

assert add(2, 3) == 5 and add(-1, 1) == 0
print("ok")
