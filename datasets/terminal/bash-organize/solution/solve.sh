#!/bin/bash
set -e
cd /app
cat > organize.sh <<'SH'
#!/bin/bash
dir=$1
if [ ! -d "$dir" ]; then echo "organize.sh: $dir is not a directory" >&2; exit 2; fi
declare -A count
for f in "$dir"/*; do
  [ -f "$f" ] && [ ! -L "$f" ] || continue
  name=$(basename -- "$f")
  case $name in
    *.) ext=other ;;
    *.*) ext=${name##*.}; ext=${ext,,} ;;
    *) ext=other ;;
  esac
  mkdir -p -- "$dir/$ext" && mv -- "$f" "$dir/$ext/"
  count[$ext]=$(( ${count[$ext]:-0} + 1 ))
done
for k in "${!count[@]}"; do echo "$k ${count[$k]}"; done | LC_ALL=C sort
SH
chmod 755 organize.sh
