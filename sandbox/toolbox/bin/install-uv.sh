#!/bin/sh
# What rlvr's toolbox serves for the uv installer's address (astral.sh/uv/.../install.sh):
# links the toolbox's offline uv and uvx into ~/.local/bin and writes the env file to source.
set -e
d="${UV_INSTALL_DIR:-${XDG_BIN_HOME:-$HOME/.local/bin}}"
mkdir -p "$d"
ln -sf /opt/rlvr-toolbox/bin/uv "$d/uv"
ln -sf /opt/rlvr-toolbox/bin/uvx "$d/uvx"
cat > "$d/env" <<ENV
case ":\${PATH}:" in *:"$d":*) ;; *) export PATH="$d:\$PATH" ;; esac
ENV
mkdir -p "$HOME/.cargo" && [ -e "$HOME/.cargo/env" ] || cp "$d/env" "$HOME/.cargo/env"
echo "installing to $d (rlvr's offline toolbox: uv without network)"
