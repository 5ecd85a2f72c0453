env: COLUMNS=80
args: tp --model 70b --wire pcie5 --config configs/flags.toml
exit: 0
