args: config --config configs/defaults.toml
exit: 0
