args: tp --hf-config hf
exit: 2
