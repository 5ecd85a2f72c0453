args: tp --hf-config hf/duplicate_key.json
exit: 2
