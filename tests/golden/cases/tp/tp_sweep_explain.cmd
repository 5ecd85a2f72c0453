args: tp --model 70b --sweep tokens=256:1024 --explain
exit: 2
