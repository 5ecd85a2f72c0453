args: plan --model 70b --ttft 2s --tpot 50ms --rate 5 --concurrency 8
exit: 2
