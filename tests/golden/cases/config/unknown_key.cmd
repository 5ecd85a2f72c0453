args: tp --model 70b --config configs/unknown_key.toml
exit: 2
