"""Task sets loaded from installed packages (BFCL), referenced by manifests as loaders."""
