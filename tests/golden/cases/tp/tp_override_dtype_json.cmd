args: tp --model 70b --dtype fp8 --tokens 2048 --wire NVL4 --json
exit: 0
