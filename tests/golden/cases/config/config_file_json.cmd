args: config --config configs/defaults.toml --json
exit: 0
