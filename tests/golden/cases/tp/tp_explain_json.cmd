args: tp --model 70b --tokens 4096 --wire nvlink4 --explain --json
exit: 0
