args: --config configs/defaults.toml tp --model 70b --tokens 4096 --wire pcie5
exit: 0
