args: tp --model 70b --config configs/flag_not_of_section.toml
exit: 2
