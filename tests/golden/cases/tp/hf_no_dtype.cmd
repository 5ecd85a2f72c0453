args: tp --hf-config hf/no_dtype.json --json
exit: 2
