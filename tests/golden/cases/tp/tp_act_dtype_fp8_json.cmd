args: tp --model 70b --dtype fp8 --act-dtype fp8 --tokens 4096 --wire nvlink4 --json
exit: 0
