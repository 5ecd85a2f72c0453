args: tp --hf-config hf/missing_field.json
exit: 2
