args: tp --model 70b --config configs/unknown_section.toml
exit: 2
