args: coldstart --hidden 8192 --layers 80
exit: 2
