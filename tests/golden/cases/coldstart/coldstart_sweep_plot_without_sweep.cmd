args: coldstart --model 70b --plot /tmp/icx-golden-coldstart.svg
exit: 2
