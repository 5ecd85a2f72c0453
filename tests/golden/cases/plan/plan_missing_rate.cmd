args: plan --model 70b --ttft 2s --tpot 50ms
exit: 2
