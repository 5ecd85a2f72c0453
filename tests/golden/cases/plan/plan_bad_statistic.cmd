args: plan --model 70b --ttft p95:2s --tpot 50ms --rate 5
exit: 2
