/// The runtime-argument checks: who takes arguments, and whether everyone who depends on them
/// can pass them.
extension GraphValidator {
    /// A shared lifetime with arguments, a plain dependency on a service that takes arguments,
    /// and a ``Factory`` whose argument types are not the registration's.
    func runtimeArgumentProblems() -> [GraftError] {
        let takers = graph.argumentTakers
        guard !takers.isEmpty || !graph.factories.isEmpty else { return [] }
        var problems = takers.compactMap(sharedLifetimeProblem)
        let takesArguments = Set(takers)
        var factoryPositions = Set<[Int]>()
        for factory in graph.factories {
            factoryPositions.insert([factory.dependent, factory.position])
            let target = graph.links[factory.dependent][factory.position]
            guard target >= 0, graph.arguments(of: target) != factory.arguments else { continue }
            problems.append(factoryMismatch(factory.dependent, factory.arguments, target))
        }
        for dependent in 0..<graph.count {
            for (position, target) in graph.links[dependent].enumerated()
            where target >= 0 && takesArguments.contains(target) && !factoryPositions.contains([dependent, position])
                && !forwardsItsArguments(dependent, to: target)
            {
                problems.append(argumentsNotPassed(dependent, target))
            }
        }
        return problems
    }

    /// Whether `dependent` is an adapter that takes `target`'s runtime arguments as its own and
    /// passes them on (`Owned<T>` of a `T` that takes arguments, made through a `Factory`).
    private func forwardsItsArguments(_ dependent: Int, to target: Int) -> Bool {
        graph.isAdapter(dependent) && graph.arguments(of: dependent) == graph.arguments(of: target)
    }

    private func sharedLifetimeProblem(_ node: Int) -> GraftError? {
        let lifetime = graph.lifetime(node)
        guard !lifetime.isMadePerResolve else { return nil }
        let key = graph.key(node)
        return GraftError(
            .runtimeArguments,
            "\(key.subject) takes runtime arguments \(graph.arguments(of: node).typeList) "
                + "but is \(lifetime): one shared instance cannot be made from each caller's arguments",
            service: key.description,
            hints: [
                "make it .transient (the default); to share one instance per argument, keep them in a "
                    + ".singleton cache keyed by it",
                "\(key) was registered at \(graph.source(node))",
            ]
        )
    }

    private func argumentsNotPassed(_ dependent: Int, _ target: Int) -> GraftError {
        let dependentKey = graph.key(dependent)
        let targetKey = graph.key(target)
        let arguments = graph.arguments(of: target)
        return GraftError(
            .runtimeArguments,
            "\(dependentKey) depends on \(targetKey.subject), which takes runtime arguments "
                + arguments.typeList,
            service: targetKey.description,
            path: [dependentKey.description, targetKey.description],
            hints: [
                "inject \(factoryName(targetKey, arguments)) and call make(…) with the arguments",
                "\(dependentKey) was registered at \(graph.source(dependent))",
            ]
        )
    }

    private func factoryMismatch(_ dependent: Int, _ injectedArguments: [ServiceKey], _ target: Int) -> GraftError {
        let dependentKey = graph.key(dependent)
        let targetKey = graph.key(target)
        let injected = factoryName(targetKey, injectedArguments)
        let arguments = graph.arguments(of: target)
        let takes =
            arguments.isEmpty
            ? "takes no runtime arguments" : "takes runtime arguments \(arguments.typeList)"
        let fix =
            !arguments.isEmpty
            ? "inject \(factoryName(targetKey, arguments))"
            : graph.isAdapter(target)
                ? "inject Provider<\(targetKey.typeName)>: Graft makes \(targetKey.typeName) itself, with no runtime arguments"
                : "inject Provider<\(targetKey.typeName)>, or declare the arguments where \(targetKey.typeName) "
                    + "is registered (\(graph.source(target)))"
        return GraftError(
            .runtimeArguments,
            "\(dependentKey) injects \(injected), but \(targetKey.subject) \(takes)",
            service: targetKey.description,
            path: [dependentKey.description, targetKey.description],
            hints: [fix, "\(dependentKey) was registered at \(graph.source(dependent))"]
        )
    }

    private func factoryName(_ key: ServiceKey, _ arguments: [ServiceKey]) -> String {
        "Factory<\(([key.typeName] + arguments.map(\.typeName)).joined(separator: ", "))>"
    }
}
