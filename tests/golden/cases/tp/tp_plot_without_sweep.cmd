args: tp --model 70b --plot /tmp/icx-golden-tp.svg
exit: 2
