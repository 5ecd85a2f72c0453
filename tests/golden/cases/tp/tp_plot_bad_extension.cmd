args: tp --model 70b --sweep tokens=256:1024 --plot /tmp/icx-golden-tp.pdf
exit: 2
