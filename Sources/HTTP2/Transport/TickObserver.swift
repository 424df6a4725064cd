/// Something that wants a call once at the end of its loop's current batch of work (e.g. to batch output).
protocol TickObserver: AnyObject {
    /// Called on the loop thread after the batch's reads, tasks and timers ran.
    func endOfTick()
}
