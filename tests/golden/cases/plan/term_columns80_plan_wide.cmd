env: COLUMNS=80
args: plan --model 70b --ttft p99:2s --tpot 50ms --rate 5 --wide
exit: 0
