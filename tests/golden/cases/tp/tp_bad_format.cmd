args: tp --model 70b --format yaml
exit: 2
