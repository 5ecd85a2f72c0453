args: tp --model 70b --config configs/missing.toml
exit: 2
