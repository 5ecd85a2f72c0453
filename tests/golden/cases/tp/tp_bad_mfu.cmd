args: tp --model 70b --mfu 1.5
exit: 2
