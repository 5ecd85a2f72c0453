args: plan --model 70b --ttft 2s --tpot 50ms --concurrency 8 --disaggregate
exit: 2
