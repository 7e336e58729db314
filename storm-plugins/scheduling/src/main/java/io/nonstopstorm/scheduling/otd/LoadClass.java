package io.nonstopstorm.scheduling.otd;

/** OTD's three worker classes. */
public enum LoadClass {
    HIGH, NORMAL, LOW;

    /** HIGH if either signal says overloaded; LOW only if both say there is room; else NORMAL. */
    public static LoadClass of(WorkerLoad w, OtdParams p) {
        if (w.cpu() >= p.highCpu() || w.queue() >= p.highQueue()) {
            return HIGH;
        }
        if (w.cpu() <= p.lowCpu() && w.queue() <= p.lowQueue()) {
            return LOW;
        }
        return NORMAL;
    }
}
