args: validate hf
exit: 2
